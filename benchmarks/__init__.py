"""Benchmarks (``taas.benchmarks``): engine speed against RLCard and OpenSpiel, agent strength on
duplicate deals, decision speed, training throughput. They import the library, never the CLI."""
