"""Importable helpers for the tests (e.g. a source class named in DDL)."""
