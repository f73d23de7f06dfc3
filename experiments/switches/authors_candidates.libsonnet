// The faithful configuration with the authors' supervised-attention candidates: a REDUCE's head only,
// plus their lexicon (docs/reproduction.md row 15). Own pre-trained archive.
{ variant: 'authors-candidates', attention_candidates: 'authors' }
