"""The web table (``taas.web``): ``taas serve`` (:mod:`taas.web.app`), its games store and its
page."""
