// The best row without IRNet schema encoding (no_schema.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'no_schema.libsonnet')
