// The faithful row plus the best row's support-set recombination (issue 52, item 6: a component
// added to the faithful row): the same pairs, repeats, replay and epochs as the best row
// (augmented.libsonnet), with role-checked forward pairs (chosen/roles.libsonnet). Fine-tuning only,
// so it shares the faithful row's pre-trained archives.
(import '../common/fewshot.libsonnet').authors + { augmentation: (import 'augmented.libsonnet').augmentation + { same_roles: true } }
