"""A warm process for the CLI's one-shot commands.

``calcite-bridge query``, ``explain``, ``validate`` and ``describe`` each start a JVM and warm up
Calcite's first session; that costs about 0.65 s of CPU at its floor, several times what the
command itself needs. A daemon keeps one JVM warm between commands, as Gradle's daemon and
Nailgun do: :mod:`.client` (the ``calcite-bridge`` entry point, light on imports) hands a command
to the daemon of its *place* (:mod:`.place`) and relays its output; :mod:`.server` runs the
commands with the same click commands as the in-process CLI.
"""
