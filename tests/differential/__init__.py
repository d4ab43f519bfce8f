"""The differential harness: every test query on every execution backend, against the reference."""
