// The best row without IRNet schema encoding (no_schema.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'no_schema.libsonnet')
