// The faithful configuration with predicate dropout per predicate (Algorithm 1) instead of per action row
// (docs/reproduction.md row 23). Own pre-trained archive.
{ variant: 'predicate-dropout', predicate_dropout_unit: 'predicate' }
