"""The Legionaries' team rules that the engine plays, registered by rule id
(``engine.rules.registry``), in the modules
``weapon_rules`` (Siphon Life*), ``marks`` (the Marks of Chaos' faction rules), ``abilities``
(operative abilities), ``actions`` (unique actions), ``faction`` (Astartes), ``equipment``
(team equipment) and ``ploys``, over ``common``. The rules:

**Siphon Life*** (Balefire Acolyte's Life Syphon and Fell Dagger): when the weapon is
selected, its operative's player can use the rule; if they do, at the start of the Resolve
Attack Dice step they select one friendly LEGIONARY operative visible to and within 6" of the
wielder (the wielder itself included: it is visible to itself at distance 0); each attack die
of the wielder that inflicts damage in that step then heals that operative 1 lost wound, or D3
for a critical success. Once per turning point for the operative ("this weapon rule": the
Life Syphon and the Fell Dagger share it, each with all its profiles).

The engine's reading, documented: two decisions of the wielder's player.

1. When the weapon is selected (the Shoot action starts, ``shoot_started``; the attacker's
   Fight action starts, ``fight_started``; the defender's retaliating weapon is known,
   ``retaliation_weapon``), before any attack die is rolled: ``Use siphon life`` or
   ``Decline``. Using it spends the once-per-turning-point limit, whatever the dice do. It is
   offered only when the limit is unspent and it could matter: some operative passes the
   Resolve step's test below at that moment (no operative moves during the action; in a fight
   the wielder always passes, as it can lose wounds before it is healed).
2. At the start of the Resolve Attack Dice step (of the first target whose resolve step has
   a retained success, the target alive), the operative: a friendly LEGIONARY operative
   visible to and within 6" of the wielder that has lost wounds (in a fight the wielder also
   unhurt). ``Use siphon life on LEG-3``, with no ``Decline`` (the rule is already used);
   when only one operative qualifies it is selected without a decision, and when none does
   nothing is selected.

A D3 is a D6 halved, rounded up.

**Mark Of Chaos**: each LEGIONARY operative has one Mark of Chaos (KHORNE, NURGLE, SLAANESH,
TZEENTCH, UNDIVIDED), chosen when the roster is built: the per-operative roster choice
``Mark of Chaos`` (declared in ``common``; ``Undivided`` when the roster does not give one, as
agents' rosters; a Balefire Acolyte cannot take Khorne). The choice is a keyword: the battle's
datacards carry it. :func:`mark_of` reads, in order: a change made by Infernal Pact (an effect
``mark_of_chaos``; the datacard keeps the keyword chosen with the roster), a mark keyword on
the operative's datacard (the roster's choice, or an imported team's), the roster's choice.

**Astartes**: during its activation, a friendly LEGIONARY operative may perform two Shoot
actions or two Fight actions (not both twice); when it shoots twice, one shot must use a bolt
pistol, boltgun or tainted bolt pistol (not the heavy bolter); it can counteract whatever its
order. Played by the shared ``teams.astartes`` module; an operative under Mutability And
Change (its token) performs no action twice.

**Nurgle - Disgusting Vigour**: whenever Normal Dmg of 3 or more is inflicted on a NURGLE
LEGIONARY operative, a D6: on a 5+ that damage is 1 less. The engine's reading: "Normal Dmg"
is the attacking weapon's stat; the D6 are rolled at the start of the Resolve Attack Dice step
(one D6 at a time, one per normal success of the attacker: a strike's, or an unblocked shot
die's, damage is set as it is inflicted, when no die can be rolled), and each normal die that
inflicts damage (a strike, or an unblocked die of the shot, through the core's
``would_strike_damage`` / ``would_shot_damage`` hooks) uses the next D6; those left unused
are discarded at the end of the action. With Unleash Daemon (a weapon of Normal Dmg 4+) no D6
is rolled: a die's damage is never reduced by more than 1.

**Khorne - Wrathful Onslaught**: a KHORNE LEGIONARY operative's melee weapons have Severe.
**Tzeentch - Empyreal Guidance**: a TZEENTCH LEGIONARY operative's ranged weapons have Severe.
**Undivided - Vicious Reavers**: whenever an UNDIVIDED LEGIONARY operative shoots, fights or
retaliates against an enemy operative within 6" of it, its weapons have Ceaseless.

**In The Eyes Of The Gods** (Aspiring Champion): once per activation, when the operative
incapacitates an enemy operative during its own activation, +1 APL until the end of that
activation. The engine's reading: AP are generated from APL at activation (2.1), so the
change would do nothing; the operative gains the 1AP the change adds (none when its APL is
already at the +1 limit), as Mutability And Change below.

**Soul Gorge** (Chosen): after the operative fights or retaliates, if it is not incapacitated
but incapacitated an enemy operative during that sequence, it regains D3+1 lost wounds (a roll
when the Fight action ends).

**Daemonic Aura** (Chosen): whenever an enemy operative performs the Fall Back action while
within the operative's control range, its player may use the rule: on a D6 of 3+ that enemy
cannot perform that action during that activation or counteraction, and the AP spent on it is
refunded. The engine's reading: the core performs a move action at once, so the choice
(``Use daemonic aura`` / ``Decline``) and the D6 come right after the move (the ``moved``
event); on a 3+ the move is undone: the enemy stands where it started (a marker it carries
with it), Fall Back is no longer among the actions it performed (nor its move among its
moves), its AP are refunded, and it cannot Fall Back again in that activation (the core's
``would_refuse_action`` hook). Each Chosen's rule is its own: when the enemy was within the
control range of several (a roster of the team has one), each is asked in id order until one
stops the Fall Back (the others are then not asked: the action is no longer performed).

**Unleash Daemon** (Anointed): once per battle, when the operative is activated, its player may
use the rule (``Use unleash daemon`` in the activation_start window: a free rule option, not a
ploy); until the end of the battle it cannot perform Pick Up Marker or mission actions (the
core's ``would_refuse_action``, for universal and rule actions; Operate Hatch is neither), a
marker it carries is placed where it stands at once (0AP), Normal and Critical Dmg of 4 or more
inflicts 1 less damage on it (each unblocked shot die and each strike, the core's
``would_shot_damage`` / ``would_strike_damage``; whether the die is reduced is decided by the
attacking weapon's Dmg stat, ``common.dmg_stats``, not by the damage after rules that add
to it, such as a first strike's +1), and its
daemonic claw has Ceaseless and Lethal 5+. NURGLE: never more than 1 less per die (see
Disgusting Vigour). Its advice: a quarter of an operative, nothing when it carries a marker or
stands within 3" of an objective marker.

**Infernal Pact** (Warrior): once per battle (per player), when a friendly LEGIONARY WARRIOR
operative is activated, its player may change its Mark of Chaos: ``Use infernal pact
<mark>`` in the activation_start window (a free rule option), one action per other mark; the
change lasts for the battle. Not for a WARRIOR under Mutability And Change this turning
point. Its advice is nothing (the agent does not weigh marks).

**Horrifying Dismemberment** (Shrivetalon): whenever the operative incapacitates an enemy
operative while fighting or retaliating, its player selects one other enemy operative visible
to and within 3" of either of them: -1 APL until the end of that enemy's next activation. The
choice comes after the strike that incapacitated it (``Use horrifying dismemberment on
BLU-2``; no ``Decline``: the rule is mandatory; made without a decision when one enemy
qualifies).

**Grisly Mark** (Shrivetalon unique action, 2AP; not within control range of an enemy
operative): its player's Grisly marker (a token, one per player: placing it again moves it) is
placed within the operative's control range (``Act LEG-1 grisly mark at x,y``; the listed
option is where it stands). While an enemy operative is within 3" of it, that enemy's Pick Up
Marker and mission actions cost 1AP more (the core's ``would_add_action_ap``; mission actions
are told apart by ``engine.game.rule_actions.is_mission_action``), and whenever control of a
marker is determined, its player's total APL counts 1 lower if one of its contesting operatives
is that near (the core's ``would_control_totals``; not an APL change). The engine applies the
latter wherever control is decided by APL totals (objective and equipment markers, areas).

**Slaanesh - Unnatural Agility**: a SLAANESH LEGIONARY operative's Move is 1" more.

**Vicious Reflexes** (Shrivetalon): whenever the operative is retaliating, its player resolves
the first attack die of the Resolve Attack Dice step (the defender first, instead of the
attacker).

**Icon Bearer** (Icon Bearer): whenever control of a marker is determined, the operative's APL
counts 1 higher (not a change of its APL stat: not clamped with its changes).

**Favoured Of The Dark Gods** (Icon Bearer): in the Ready step of each Strategy phase, if the
operative controls an objective marker (contests it, and its player controls it) that no
operative has tainted, that marker is tainted for the battle (an effect ``tainted`` naming it)
and its player gains 1CP. One marker per Ready step per Icon Bearer (among several, its player
chooses which: ``Use favoured of the dark gods <marker>``).

**Team equipment** (selected like universal equipment; each plays once selected):
**Malefic Blades**: every friendly LEGIONARY operative has the malefic blade (melee, from the
team data). **Warded Armour** (strategic gambit, once per Strategy phase: ``Use warded armour
on LEG-2``): a friendly LEGIONARY operative's Save is 2+ until the Ready step of the next
Strategy phase (a ``save`` stat change until the end of the turning point). **Tainted
Rounds** (once per turning point, in the target_selected window of a friendly LEGIONARY
operative's Shoot with a bolt pistol or boltgun: ``Use tainted rounds``): Rending for that
weapon until the end of the action. **Chaos Talismans** (strategic gambit, once per Strategy
phase: ``Use chaos talismans nurgle``): a Mark of Chaos is selected for the turning point; in
the attack dice window of a friendly LEGIONARY operative of that mark that is shooting,
fighting or retaliating with two or more fails, once per activation in progress (its own, or
the one it retaliates in): ``Use chaos talismans``: the lowest fail is discarded, the next
one retained as a normal success (it shows the Hit), and the operative suffers D3 damage (a
roll once the window's changes are done; a D3 is a D6 halved, rounded up). If that damage
incapacitates it, a fight ends as any fight does, and a Shoot action goes on with its attack
dice (the rule's note), as the core's Shoot already does for any shooter incapacitated during
it: the sequence runs to its end (defence, damage) and the shooter is removed once the
action is over (``remove_casualties``), its Hot roll skipped. The heuristic agent values
them (``register_equipment_value``) Warded Armour 3, Tainted Rounds
2.5, Chaos Talismans 2.5, Malefic Blades 2.

**Fickle Fates** (strategy ploy, 1CP): until the end of the turning point, whenever a friendly
LEGIONARY operative shoots a ready enemy operative, its ranged weapons have Balanced; and
whenever an operative shoots a ready friendly LEGIONARY TZEENTCH operative, in its Roll
Defence Dice step, if its player retains a critical success (a rolled critical save, or a
cover save retained as one), they can retain one of their fails as a normal success: ``Use
fickle fates`` in the defence dice window (a free rule option, once per defence roll; the
lowest fail becomes the Save; it retains the dice, so it closes the window: re-rolls come
before it). Its advice: a normal hit of the shooter blocked.

**Implacable** (strategy ploy, 1CP): until the end of the turning point, whenever an operative
shoots a friendly LEGIONARY operative, weapons with Piercing 1 have Piercing Crits 1 instead.
Friendly LEGIONARY NURGLE operatives ignore the stat changes of being injured (Move -2", their
weapons' Hit +1, 2.3): the engine adds them back through the Move and Hit hooks (the Hit one
is asked only when the opponent is known, as in the game's Shoot and Fight sequences).

**Quicksilver Speed** (strategy ploy, 1CP): until the end of the turning point, whenever a
friendly LEGIONARY operative that performed an action in which it moved this turning point
(tracked from the ploy's use: a strategy ploy comes before any move of its turning point) is
fighting (performing the Fight action, not retaliating), the Hit of the enemy's melee weapons
is worsened by 1, not cumulative with being injured; and whenever an enemy operative shoots a
friendly LEGIONARY SLAANESH operative more than 6" from it that so moved, the Hit of its
weapons is worsened by 1 (not cumulative with being injured).

**Blood For The Blood God** (strategy ploy, 1CP): until the end of the turning point, whenever
a friendly LEGIONARY operative that is not KHORNE is fighting (performing the Fight action),
its first strike of that sequence inflicts 1 more damage (7 at most); a friendly LEGIONARY
KHORNE operative's melee weapons have +1 to both Dmg stats (7 at most): a stat change (the
core's ``would_change_damage`` hook on the attack profile), so each of its strikes, fighting
or retaliating, every rule reading a Dmg stat (Unleash Daemon, Disgusting Vigour, another
team's Ice In Your Veins) and the dice core's valuations see it.

**Malignant Aura** (firefight ploy, 1CP): when a friendly LEGIONARY NURGLE operative performing
the Shoot action selects a valid target: until the end of that action, its ranged weapons have
Piercing 1 against every enemy operative within 3" of it (secondary targets included).

**Mutability And Change** (firefight ploy, 1CP): when a friendly LEGIONARY TZEENTCH operative is
activated: +1 APL until the end of that activation, and it cannot perform the same action more
than once in it. The engine's reading: the ploy is used as the operative is activated, when its
AP are generated from its APL, so it gains the AP of that change (1AP, none when its APL is
already at the +1 limit), although a later APL change would not change its AP (2.1). The
engine already allows each action once per activation (1.5); the ploy
marks the operative with the token ``mutability_and_change`` for the rules that lift that
limit (Astartes), which respects it. A WARRIOR under it cannot use Infernal Pact
(its mark is locked for the turning point; both come as it is activated).

**Sickening Captivation** (firefight ploy, 1CP): during a friendly LEGIONARY SLAANESH
operative's activation, before or after an action, select an enemy operative visible to and
within 4" of it: -1 APL until the end of that enemy's next activation. Offered among the
operative's action choices (trigger ``during_activation``: before its first action and
between two actions; using it is not an action) and in the activation_end window (after its
last action, also when its AP ran out).

**Unending Bloodshed** (firefight ploy, 1CP): when a friendly LEGIONARY KHORNE operative is
incapacitated while fighting or retaliating, it strikes the enemy operative of that sequence
with one of its unresolved successes before it is removed. The engine's reading: offered in
the window that opens at the incapacitation (the fight still in progress); the strike uses a
critical success when one is left (never worse than a normal one), with the weapon's damage
and the rules that change a strike's damage; a strike's other effects (Shock) do not apply.
"""

from teams.legionaries import (  # noqa: F401 (register)
    abilities,
    actions,
    equipment,
    faction,
    marks,
    ploys,
    weapon_rules,
)
from teams.legionaries.common import MARKS, mark_of

__all__ = ["MARKS", "mark_of"]
