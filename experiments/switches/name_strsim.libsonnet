// The faithful configuration with string similarity over whole predicate names instead of their `_` parts
// (docs/reproduction.md row 19). Own pre-trained archive.
{ variant: 'name-strsim', string_similarity: 'name' }
