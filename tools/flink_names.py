"""Flink's column names for the queries of tests/flink/names/cases.sql, as golden.tsv.

Runs in an environment with PyFlink (``make golden-flink-names``; see tools/flink_golden.py):
each query's result names from its resolved schema, tab-separated, or ``error`` when Flink
refuses it. tests/test_output_names.py checks them without PyFlink.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "tests" / "flink" / "names"


def main() -> None:
    from pyflink.table import EnvironmentSettings, TableEnvironment

    env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    env.execute_sql("CREATE TEMPORARY VIEW l AS SELECT * FROM (VALUES (1, 10)) AS v(a, b)")
    env.execute_sql("CREATE TEMPORARY VIEW r AS SELECT * FROM (VALUES (1, 100)) AS v(a, c)")
    lines = ["# sql\tFlink's column names (tab-separated), or error; by tools/flink_names.py\n"]
    for sql in (HERE / "cases.sql").read_text().splitlines():
        if not sql.strip() or sql.startswith("--"):
            continue
        try:
            names = list(env.sql_query(sql).get_schema().get_field_names())
            lines.append(sql + "\t" + "\t".join(names) + "\n")
        except Exception:  # Flink refuses the query
            lines.append(sql + "\terror\n")
    (HERE / "golden.tsv").write_text("".join(lines))


if __name__ == "__main__":
    main()
