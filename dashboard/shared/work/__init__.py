"""Where a page's work is kept: this browser's id (`browser`), the server's store of each browser's work and saved
games (`store`), and the work a page keeps in its address with the schema of each parameter (`urldoc`,
`addresses`)."""
