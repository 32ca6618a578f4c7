from yacht.cli import main

raise SystemExit(main())
