// The best row without IRNet schema encoding (no_schema.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'no_schema.libsonnet')
