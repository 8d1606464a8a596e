"""Rule parts: frozen values with pure judgements, composed into rule sets by `bezique_rules.rules`.

Shared by the engines: `trumps` (trump orders and tables), `tricks` (play duties and who
wins), `melds` (meld kinds, the declaration rules and the meld search), `scoring` (card
points, deal results, game ends) and `cut` (the cut for the deal). One module per family of
games: `stock` (the stock games' sequencing parts: `StockRules`, the trump seven / dix,
the cut guess, their bonuses and Rubicon scoring), `euchre` (the order-up rounds and
Euchre's scoring), `auction` (the auction, the contract and its scoring) and `closing` (the
closing games: Sixty-six, Schnapsen). Nothing here imports a rule set, an engine or a state.
"""
