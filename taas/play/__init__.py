"""Playing against the agents (``taas.play``): one table model (:mod:`taas.play.session`) under a
terminal front end (:mod:`taas.play.terminal`) and the web table (:mod:`taas.web`)."""
