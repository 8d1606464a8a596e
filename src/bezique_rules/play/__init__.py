"""Playing against the computer: one match and its ladder (`bezique_rules.play.match`,
`bezique_rules.play.ladder`), told in the terminal (``bezique-rules play``,
`bezique_rules.play.terminal`) or served as a web page (``bezique-rules serve``,
`bezique_rules.play.web`).

Nothing here is imported by ``import bezique_rules``.
"""
