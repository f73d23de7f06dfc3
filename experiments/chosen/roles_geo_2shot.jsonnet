// The best row with role-checked forward pairs (roles.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'roles.libsonnet')
