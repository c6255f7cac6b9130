from rulegen.cli import main

main()
