"""`python -m musim`: the `musim` command, from whichever checkout is on the path."""

from musim.cli import main

main()
