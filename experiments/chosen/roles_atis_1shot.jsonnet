// The best row with role-checked forward pairs (roles.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'roles.libsonnet')
