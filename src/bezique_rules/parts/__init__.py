"""Rule parts: frozen values with pure judgements, composed into rule sets by `bezique_rules.rules`.

Shared by the engines: `trumps` (trump orders and tables), `tricks` (play duties and who
wins), `melds` (meld kinds, the declaration rules and the meld search), `scoring` (card
points, deal results, game ends), `cut` (the cut for the deal) and `bidding` (the
bidding parts). Parts of one family of games: `closing` (the closing games: Sixty-six,
Schnapsen, Marjolet). Nothing here imports a rule set, an engine or a state.
"""
