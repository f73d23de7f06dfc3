// The faithful configuration with our typed entity slots (<e:ci>, <e:s>, ...) instead of the authors'
// single untyped slot: measures what docs/reproduction.md rows 4 and 36 cost. Own pre-trained archive.
{ variant: 'typed', typed_entities: true }
