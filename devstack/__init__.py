"""The whole platform on one machine: `make run`, the end-to-end tests and the benchmarks use it."""
