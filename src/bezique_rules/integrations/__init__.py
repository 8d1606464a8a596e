"""The ecosystem adapters: OpenSpiel games (`openspiel`), the learning environments (`envs`),
running the arena on a cluster (`cluster`) and game returns for learning code (`returns`).

Each needs an optional extra, imported only when used; ``import bezique_rules`` imports
none of them.
"""
