"""``python -m taas.cli``: the ``taas`` command."""

import sys

from taas.cli import main

sys.exit(main())
