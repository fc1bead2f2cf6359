"""What if? The expected result of every choice in a Lone Cowboy game (rule:W-advice).

:func:`advise` (:mod:`.engine`) answers one decision; :func:`information_state` (:mod:`.information`) is what the
player knows there; :func:`review_choices` (:mod:`.review`) goes through a played game's decisions and names the
turns where the choice made cost the most expected margin against the advised one.
"""

from solver.wagons.advice.engine import DEFAULT_POLICY, DEFAULT_SAMPLES, advise
from solver.wagons.advice.information import information_state
from solver.wagons.advice.review import review_choices

__all__ = ["advise", "information_state", "review_choices", "DEFAULT_POLICY", "DEFAULT_SAMPLES"]
