"""`python -m ginrules` runs the ginrules command."""

from ginrules.cli import main

raise SystemExit(main())
