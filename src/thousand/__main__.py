from thousand.cli import main

raise SystemExit(main())
