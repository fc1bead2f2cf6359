"""The "Ask a rules question" page's room: a builder over every game's question domains, the answer and its witness
drawn, kept in My games and in the address."""
