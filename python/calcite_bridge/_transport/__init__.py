"""How Python reaches the JVM: the ``Session`` protocol and its two transports.

- ``session``: the ``Session`` protocol an Environment talks to;
- ``jvm``, ``threads`` and ``inprocess``: the JVM inside this process, through JPype;
- ``gateway`` and ``net``: a JVM in another process, through a py4j gateway;
- ``serve``: the ``calcite-bridge gateway`` command, which serves this process's JVM.

This ``__init__`` imports none of them, and JPype and py4j are imported only when a transport
starts, so ``import calcite_bridge`` stays cheap.
"""
