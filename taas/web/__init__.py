"""The web table: ``taas serve`` (:mod:`taas.web.app`), its games store and its page."""
