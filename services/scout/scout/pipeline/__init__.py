"""The scan pipeline of a Scout Run: sources, canonical identity, relevance gate and stages.

Pure of database access: the scan job gives it a brief, the sources, the owner's history and a
target, and publishes the ScanOutcome it returns. Callers import from the submodules
(`scout.pipeline.scan`, `.gate`, `.signature`, `.identity`, `.sources`); this package re-exports
nothing, so importing one submodule never imports the others.
"""
