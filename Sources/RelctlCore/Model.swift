/// The model (records, the evaluator, the catalog) is part of the core for
/// every server-side module: one import, as before the split.
@_exported import RelctlModel
