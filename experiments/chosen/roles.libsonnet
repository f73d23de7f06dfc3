// The best row (chosen + routing to the pre-trained parser) whose forward recombination pairs replace
// only a known predicate whose variables play the new predicate's roles (augmentation.same_roles;
// data/recombination/forward.py). Found by an error analysis of the development suite (geo draw 3:
// `major:t` took the place of `city:t`, the only type of its training LF, in every forward pair);
// fine-tuning only, so it shares the best row's pre-trained archives.
(import 'chosen.libsonnet') + (import '../retention/fallback.libsonnet') + { augmentation+: { same_roles: true } }
