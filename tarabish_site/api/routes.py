"""Route patterns shared by the API's apps."""

#: A row id in a URL: digits, no more than fit the database's 64-bit keys, so that an id too
#: large for any row is answered 404 like any other id with no row, not with a database error.
ID = "[0-9]{1,18}"
#: The largest row id (the database's 64-bit keys): the bound of an id given in a body or a
#: query, so that one too large for any row is a 400 naming it, not a database error.
ID_MAX = 2**63 - 1
