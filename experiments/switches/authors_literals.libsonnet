// The faithful configuration plus one more behaviour of the authors' code: the atoms their `is_lit`
// (grammar/utils.py) lists are entity slots wherever they occur, named by the entity classifier
// (docs/reproduction.md row 4, note 3). Own pre-trained archive, since the templates change.
local lambda_literals = '.*:(ap|fb|mf|me|cl|pd|dc|al).*|yr0|do0|fb[01]|rc0|ci[0-3]|fn[01]|ap[01]|al[0-2]|st[0-2]|ti[01]|da[0-4]|dn[01]|mn0|ac0|c0|m0|s[01]|r0|n0|co0|usa:co|death_valley:lo|colorado:n';
{
  variant: 'authors-literals',
  literal_slots: {
    jobs: '.*id[012]|num_salary|year[01]?|hour|month|20',
    geo: lambda_literals,
    atis: lambda_literals + '|.*:i|.*:hr',
  },
}
