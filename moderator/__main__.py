"""`python -m moderator`: the same as the `moderator` command."""

import sys

from .cli import main

sys.exit(main())
