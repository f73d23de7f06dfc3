// The best row with role-checked forward pairs (roles.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'roles.libsonnet')
