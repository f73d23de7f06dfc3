// contextual_schema.libsonnet decoded with a beam of 5 templates instead of greedily; training is
// unchanged, and the pre-trained archives are contextual-schema's.
(import 'contextual_schema.libsonnet') + { beam_size: 5 }
