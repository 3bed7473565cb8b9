"""The log as a published protocol: the test vectors of ``docs/protocol.md``, their generator
(``python -m tests.protocol.make_vectors``), an implementation of the specification's
primitives written from the document alone (:mod:`tests.protocol.reference`), and the tests
that hold the code and that implementation to the vectors."""
