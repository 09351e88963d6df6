"""Static files as production serves them: each under a name carrying its content's hash, so a
browser may keep it for good, and compressed (WhiteNoise)."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Also rewrites the ``import ... from "./x.js"`` of JavaScript modules to the hashed names,
    so a page's modules are always of one deploy: a new score-pad never runs against an old
    outbox left in a phone's cache. The modules' imports must not go round in a circle (the
    hash of each would depend on its own)."""

    support_js_module_import_aggregation = True
