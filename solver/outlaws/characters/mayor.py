"""The Mayor (rule:O8): "Quando sveli un personaggio immediatamente alla destra del Sindaco per usare la sua
abilità, puoi svelare anche il Sindaco per aumentare la portata dell'abilita' del carattere di 1 ... Questa abilità
non può essere usata in congiunzione con il Sicario, la Ballerina o il Bandito." He has no action of his own: each
character says whether he extends it (:attr:`~solver.outlaws.characters.common.Character.mayor`), and the Mayor
standing immediately to its left is offered with its ability (:func:`~solver.outlaws.characters.common.mayors`;
the Z3 model's ``mayor_reach``). He takes Votes (rule:O4).
"""

from __future__ import annotations

from solver.outlaws.characters.common import Character, nothing

CHARACTER = Character("mayor", "O8", takes=("vote",), mayor=False, targets=nothing, resolve=nothing, words=nothing)
