# Sourced by the start scripts, from the project root: the project's .env, read as the Django
# settings read it (django-environ), so the scripts, gunicorn.conf.py and Django agree on every
# variable. A variable already in the environment keeps its value; `NAME=value` and
# `export NAME=value` lines set the others (a later line for the same name wins); other lines,
# comments among them, are skipped. A value in '...' or "..." loses its quotes, and in "..."
# a backslash keeps the character after it (\n, \r and \t stay as written). An unquoted value
# is taken whole: `NAME=a # b` sets `a # b`, as Django reads it.

_dotenv_unquote() {
    local _dotenv_rest="$1" _dotenv_char
    _dotenv_value=""
    while [ -n "$_dotenv_rest" ]; do
        _dotenv_char="${_dotenv_rest:0:1}"
        if [ "$_dotenv_char" = "\\" ] && [ "${#_dotenv_rest}" -gt 1 ]; then
            _dotenv_char="${_dotenv_rest:1:1}"
            case "$_dotenv_char" in
                r | n | t) _dotenv_value+="\\$_dotenv_char" ;;
                *) _dotenv_value+="$_dotenv_char" ;;
            esac
            _dotenv_rest="${_dotenv_rest:2}"
        else
            _dotenv_value+="$_dotenv_char"
            _dotenv_rest="${_dotenv_rest:1}"
        fi
    done
}

load_dotenv() {
    local _dotenv_file="${1:-.env}" _dotenv_line _dotenv_name _dotenv_value _dotenv_known
    local -A _dotenv_inherited=()
    [ -f "$_dotenv_file" ] || return 0
    while IFS= read -r _dotenv_known; do
        _dotenv_inherited[$_dotenv_known]=1
    done < <(compgen -e)
    while IFS= read -r _dotenv_line || [ -n "$_dotenv_line" ]; do
        _dotenv_line="${_dotenv_line%$'\r'}"
        [[ $_dotenv_line =~ ^(export\ )?([A-Za-z_0-9]+)=(.*)$ ]] || continue
        _dotenv_name="${BASH_REMATCH[2]}"
        _dotenv_value="${BASH_REMATCH[3]}"
        if [[ $_dotenv_value =~ ^\'(.*)\'$ ]]; then
            _dotenv_value="${BASH_REMATCH[1]}"
        fi
        if [[ $_dotenv_value =~ ^\"(.*)\"$ ]]; then
            _dotenv_unquote "${BASH_REMATCH[1]}"
        fi
        # A name the shell cannot hold (one that starts with a digit) reaches Django all the same.
        [[ $_dotenv_name =~ ^[A-Za-z_][A-Za-z_0-9]*$ ]] || continue
        [ -z "${_dotenv_inherited[$_dotenv_name]+set}" ] || continue
        if ! export "$_dotenv_name=$_dotenv_value" 2>/dev/null; then
            echo "$_dotenv_file: $_dotenv_name cannot be set here; skipped" >&2
        fi
    done <"$_dotenv_file"
}
