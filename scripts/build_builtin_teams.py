"""Regenerate the built-in team files in ``teams/`` from a killteamjson checkout.

Usage: ``python scripts/build_builtin_teams.py PATH/TO/killteamjson``

The numbers (stats, weapon profiles, weapon rules, base sizes, keywords) come from the
importer; everything else here is the project's own work: one-line summaries in our own
words, the selection rules encoded from the composition, a legal default roster and the
provenance. No text from the dataset is copied.
"""

from __future__ import annotations

import sys
from pathlib import Path

import attrs

from engine.teams.importers.killteamjson import import_killteamjson
from engine.teams.io import save_team
from engine.teams.model import (
    Ability,
    LoadoutOption,
    LoadoutSlot,
    Operative,
    Provenance,
    Selection,
    Team,
)

ROOT = Path(__file__).resolve().parent.parent

# Own-words summaries, per team, by ability / action / ploy / equipment name.
SUMMARIES: dict[str, dict[str, str]] = {
    "kasrkin": {
        # team abilities
        "Skill At Arms": "Strategic gambit: pick one of four team-wide drills (Severe on "
        'ranged weapons, +1" Reposition, shrug 1 damage off the first big hit, or +1 melee '
        "Atk and +1 damage on the first strike).",
        "Rapid Fire": "An operative that does not move in its activation may shoot twice, "
        "using a bolt pistol or hot-shot lasgun/laspistol both times.",
        # operative abilities and actions
        "Veteran Leadership": "While the sergeant is in the killzone, Skill At Arms grants "
        "one extra drill.",
        "Tactical Command": "Give one friendly Kasrkin an extra Skill At Arms drill until the "
        "next Strategy phase.",
        "Medic!": 'Once per turning point, save a nearby friendly operative (within 3") from '
        "being incapacitated; both lose some freedom of action afterwards.",
        "Medikit": "A friendly operative in control range heals 2D3 wounds.",
        "Melta Mine": "Carries the team's melta mine marker and can place it cheaply.",
        "Proximity Mine": "The placed mine explodes for 2D6+3 damage on the first operative "
        "that comes within control range of it.",
        "Reconnoitre Killzone": "Relocate costs 0CP when this operative is the one chosen.",
        "Auspex Scan": 'Until its next activation, enemies within 8" of it are scanned and '
        "cannot hide behind obscuring terrain from friendly shooters.",
        "Camo Cloak": "Saturate does not work against it; it may retain two cover "
        "saves or upgrade one to a critical save.",
        "Adaptive Equipment": "Once per turning point each, a Trooper may throw a smoke or a "
        "stun grenade.",
        "Battle Comms": "Another friendly Kasrkin gets +1 APL for its next activation.",
        # ploys
        "Clearance Sweep": "Place a marker; Kasrkin shooting targets near it gain Ceaseless.",
        "Engage From Cover": "Friendly Kasrkin in cover re-roll one defence die when shot.",
        "Elimination Pattern": "Hot-shot weapons hit harder against exposed or scanned targets.",
        "Relocate": "One Kasrkin away from enemies, and friends close to it, make a free "
        "short move.",
        "Cover Retreat": "An operative falling back under a friend's cover fire does so more "
        "cheaply.",
        "Give No Ground": "Friendly Kasrkin count as stronger when contesting a chosen marker.",
        "Neutralise Target": "Turn one hit into a critical when shooting an exposed or "
        "scanned target.",
        "Seize The Initiative": "As the Firefight phase begins, one Kasrkin gets a free "
        "1AP action but may not move.",
        # equipment
        "Foregrip": 'Non-pistol datacard guns get Accurate 1 against targets within 3".',
        "Long-Range Scope": 'Hot-shot weapons gain Saturate against targets over 6" away.',
        "Relics Of Cadia": "Once per turning point, trade one failed die for a normal "
        "success when rolling two or more fails.",
        "Combat Daggers": "Every Kasrkin gains a combat dagger melee weapon.",
    },
    "angels_of_death": {
        "Astartes": "Each operative may shoot twice or fight twice in an activation (one "
        "shot must use a bolt weapon).",
        "Chapter Tactics": "Choose a primary and a secondary chapter tactic for the whole "
        "team when the roster is picked.",
        "[CT] Aggressive": "Melee weapons gain Rending.",
        "[CT] Dueller": "In melee, a normal success can parry a critical (not vs Brutal).",
        "[CT] Hardy": "Defence rolls of 5+ are criticals; the first big hit in melee loses "
        "1 damage.",
        "[CT] Mobile": "Fall Back costs 1AP less and it may charge out of enemy control range.",
        "[CT] Resolute": "Ignores APL changes and enemy Shock.",
        "[CT] Sharpshooter": "Bolt weapons gain Accurate 1 and Severe if it has not moved "
        "this activation.",
        "[CT] Siege Specialist": "Ranged weapons gain Saturate.",
        "[CT] Stealthy": "May retain two cover saves, or upgrade one to a critical save.",
        "Adaptive Tactics": "Swap the secondary chapter tactic for this turning point.",
        "And They Shall Know No Fear": "Friendly operatives ignore injury stat penalties "
        "this turning point.",
        "Combat Doctrine": "Choose a doctrine (shooting, charging or close combat); weapons "
        "used that way gain Balanced.",
        "Indomitus": "When shot and rolling two or more failed saves, turn one into a normal "
        "success.",
        "Adjust Doctrine": "Change the active combat doctrine mid-turn.",
        "Shock Assault": "After charging, the operative's melee weapons hit harder in that fight.",
        "Transhuman Physiology": "Turn one normal defence success into a critical.",
        "Wrath Of Vengeance": "A counteracting operative takes an extra free 1AP action.",
        "Chapter Reliquaries": "Wrath Of Vengeance is free for an operative with an Engage order.",
        "Purity Seals": "Once per turning point, swap one failed die for a normal success "
        "when two or more fail.",
        "Tilting Shields": "Once per turning point in melee, blunt the enemy's attack dice.",
        "Auspex": "Once per turning point, the target of a shot cannot be obscured.",
        "Heroic Leader": "Once per turning point, a free ploy for the captain or an extra "
        "doctrine benefit.",
        "Iron Halo": "Once per battle, ignore the damage of one normal hit.",
        "Chapter Veteran": "This sergeant gains one more chapter tactic for the battle.",
        "Doctrine Warfare": "Once per battle, boost the matching combat doctrine while this "
        "sergeant is on the board.",
        "Stealthy": "May retain two cover saves, or upgrade one to a critical save.",
        "Camo Cloak": "Enemy shots ignore Saturate against it, and it counts as having the "
        "Stealthy chapter tactic.",
        "Optics": "Until its next activation, its targets cannot be obscured.",
        "Grenadier": "Can throw frag and krak grenades without using the team's grenade allowance.",
    },
    "legionaries": {
        "Astartes": "Each operative may shoot twice or fight twice in an activation (one "
        "shot must use a bolt weapon).",
        "Mark Of Chaos": "Each operative is dedicated to one Chaos god for the battle, "
        "which grants a matching benefit.",
        "Khorne - Wrathful Onslaught": "Khorne: melee weapons gain Severe.",
        "Nurgle - Disgusting Vigour": "Nurgle: big hits have a 5+ chance to lose 1 damage.",
        "Slaanesh - Unnatural Agility": 'Slaanesh: +1" Move.',
        "Tzeentch - Empyreal Guidance": "Tzeentch: ranged weapons gain Severe.",
        "Undivided - Vicious Reavers": "Undivided: weapons gain Ceaseless against enemies "
        'within 6".',
        "Blood For The Blood God": "Non-Khorne legionaries deal 1 extra damage on the first "
        "melee strike.",
        "Fickle Fates": "Shots at ready enemies gain Balanced.",
        "Implacable": "Enemy Piercing 1 only works on criticals against legionaries.",
        "Quicksilver Speed": "Legionaries that moved make enemy melee hits harder to land.",
        "Malignant Aura": "A Nurgle legionary's shot weakens the target's defence.",
        "Mutability And Change": "A Tzeentch legionary gets +1 APL this activation with "
        "restrictions.",
        "Sickening Captivation": "A Slaanesh legionary hampers a nearby visible enemy.",
        "Unending Bloodshed": "A Khorne legionary killed in melee strikes once more first.",
        "Warded Armour": "Strategic gambit: one legionary has a 2+ Save until the next "
        "Strategy phase.",
        "Malefic Blades": "Every legionary gains a malefic blade melee weapon.",
        "Tainted Rounds": "Once per turning point, a bolt pistol or boltgun shot gains extra "
        "punch.",
        "Chaos Talismans": "Strategic gambit: legionaries of one mark may re-roll a die once "
        "per activation.",
        "In The Eyes Of The Gods": "Once per activation, +1 APL after it incapacitates an enemy.",
        "Daemonic Aura": "Enemies falling back from it may take damage on a 3+.",
        "Soul Gorge": "Heals D3+1 after a fight in which it killed an enemy.",
        "Unleash Daemon": "Once per battle it turns into a daemonic fighter: stronger but "
        "barred from marker actions.",
        "Favoured Of The Dark Gods": "Taints objective markers it holds, gaining extra resources.",
        "Icon Bearer": "Counts as APL +1 when controlling markers.",
        "Horrifying Dismemberment": "After a melee kill, a nearby enemy is shaken.",
        "Vicious Reflexes": "When retaliating it strikes first.",
        "Grisly Mark": "Place a marker that makes nearby enemies pay extra AP for actions.",
        "Infernal Pact": "Once per battle, change a warrior's mark of Chaos.",
    },
    "pathfinders": {
        "Markerlight": "Mark a visible enemy with a markerlight token (up to four), "
        "helping friendly shooters.",
        "Bonded": "Pathfinders shooting near friends gain a benefit.",
        "Recon Sweep": "Operatives near a chosen enemy edge take a free Dash.",
        "Suppressing Fire": "Enemies shooting anything but the closest target are hindered.",
        "Take Cover": "Pathfinders in cover improve their Save by 1 when shot.",
        "A Worthy Cause": "A non-drone pathfinder does a free mission action.",
        "Point-Blank Fusillade": "A pathfinder may retaliate with its ranged weapon.",
        "Supporting Fire": "Nearby friends stop blocking line of fire for this shot.",
        "Saviour Protocols": "A drone takes a shot aimed at a nearby pathfinder.",
        "Target Analysis Optic": "Once per turning point, improve a non-drone's shot at a target.",
        "Orbital Survey Uplink": "Once per turning point, the Markerlight action can target "
        "an enemy out of sight.",
        "High-Intensity Markerlight": "Twice per turning point, a markerlight gives an extra "
        "token.",
        "Photon Grenade": "Once per turning point, a pathfinder throws a blinding grenade.",
        "Art Of War": "Strategic gambit: choose a Tau battle doctrine for the turning point "
        "(each once per battle).",
        "Grenadier Specialist": "Can throw frag and krak grenades without using the team's "
        "grenade allowance.",
        "Veteran": "May use the other doctrine when Mont'ka is chosen.",
        "Signal": 'Another pathfinder within 6" gets +1 APL next activation.',
        "Drone Controller": 'Drones move 2" further and Saviour Protocols is free.',
        "Remote Pilot": "A drone takes a free action with limited movement.",
        "Inertial Dampener": "Its marksman rail rifle ignores Hit changes.",
        "Medic!": "Once per turning point, save a nearby non-drone from being incapacitated.",
        "Medikit": "A friendly non-drone in control range heals 2D3 wounds.",
        "Fearless On The Frontline": "May use Markerlight even while engaged.",
        "Group Activation": "After it activates, another Shas'la must activate next.",
        "Multi-Dimensional Vision": "Its targets cannot be obscured.",
        "System Jam": "A visible enemy gets -1 APL for its next activation.",
        "Analyse": "Its markerlights also mark enemies close to the target.",
        "Drone": "Limited to basic actions and its own weapons; cannot hold objectives "
        "like an infantryman.",
        "Shield Generator": "Ignores Piercing and once per turning point shrugs off a normal hit.",
        "Pulse Accelerator": "Pulse weapons of nearby friends gain range or punch until its "
        "next activation.",
        "Grav-Inhibitor": "Enemies moving near it lose extra distance.",
    },
    "kommandos": {
        "DAKKA! DAKKA! DAKKA!": "Ranged weapons gain Punishing.",
        "Skulk About": "Concealed kommandos keep one defence die as a success without rolling.",
        "SSSSHHHH!": "Hidden kommandos may make a free short move.",
        "WAAAGH!": "Melee weapons gain Balanced.",
        "Just A Scratch": "Ignore one normal hit's damage (not on grots or squigs).",
        "Kunnin' But Brutal": "A concealed kommando that charged strikes harder.",
        "Krump 'Em": "When the Firefight phase ends, one kommando gets a free Fight.",
        "Shake It Off": "A kommando ignores APL changes until the next turning point.",
        "Choppas": "Kommandos (not grots or squigs) gain a choppa melee weapon.",
        "Collapsible Stocks": "Slugga and shokka pistol lose their Range limit.",
        "Dynamite": "Once per battle, a kommando may throw dynamite.",
        "Harpoon": "Once per turning point, a kommando may fire a harpoon.",
        "Throat Slittas": "Kommandos (not bomb squigs) may charge while concealed.",
        "Krumpin' Time": "May fight twice in its activation.",
        "Get it Dun": 'Another kommando within 6" gets a boost for its next activation.',
        "Tactical Wot-Notz": "Once per turning point each, a Boy may throw a smoke or a stun "
        "grenade.",
        "Sneaky Zogger": "Never engaged; cannot be targeted while in cover.",
        "Grappling Hook": "Climb to a visible point on terrain by redeploying next to it.",
        "Dat All You Got?": "After surviving a fight it deals D3 more damage.",
        "Breach": "Place a breach marker letting operatives pass through nearby terrain.",
        "Dakka Dash": "A free Dash and a free dakka shoota shot, in either order.",
        "I Got A Plan Ladz": "Once per activation, a marker or mission action costs 1AP less.",
        "Listen In": 'Another kommando within 6" gets a boost for its next activation.',
        "Boom!": "If killed before using its explosives, it may go off anyway.",
        "Expendable": "Does not count for the enemy's kill op or for marker control.",
        "Stoopid": "Cannot conceal and may only take basic combat actions.",
    },
    "hierotek_circle": {
        "Living Metal": "In each Ready step every operative heals D3+1.",
        "Reanimation Protocols": "The first time each operative dies, leave a marker; it "
        "may come back later.",
        "Command Underlings": "Operatives near a cryptek take a free action (a support rule).",
        "Methodical Elimination": "Melee weapons gain Accurate 1, more if the operative did "
        "not move.",
        "Relentless Onslaught": 'Ranged weapons gain Balanced against targets within 8".',
        "Undying Androids": "Out of cover, keep one defence die as a normal success.",
        "Cortical Control": "A support action by an apprentek or cryptek reaches further.",
        "Dimensional Ambush": "A concealed deathmark may shoot and reposition in a special way.",
        "Living Lightning": "A tesla carbine shot spreads to nearby enemies.",
        "Reanimated Function": "Reanimation markers help control nearby objectives.",
        "Magnification Conduits": "Once per turning point, a cryptek or apprentek's shot "
        "gets extra Magnify range.",
        "Phase Shifter": "Once per turning point, a cryptek being shot worsens the "
        "attacker's dice.",
        "Tesseract Cube": "Gain an extra CP in some Ready steps while a cryptek is safe.",
        "Tesla Weave": "Once per turning point, damage an enemy that charges into the team.",
        "Chronometron": 'A friendly operative within 6" becomes harder to hurt until this '
        "operative's next activation.",
        "Countertemporal Nanomine": "Place a marker that slows enemies moving near it.",
        "Interstitial Command": "Order nearby friends to act together (a support action).",
        "Timesplinter": "A temporal trick that repositions or protects a friend.",
        "Harbinger Of Despair": "Place a despair marker that weakens nearby enemies.",
        "Nightmare Shroud": "Enemies near it have trouble attacking it until its next activation.",
        "Vision Of Madness": "A visible enemy is hampered until this operative next activates.",
        "Augment Weapon": 'A friend within 6" gets stronger weapons for a while.',
        "Canoptek Repair": 'A friend within 6" heals 2D3.',
        "Reinforce Metal": 'A friend within 6" gets tougher for a while.',
        "Scuttler": "While concealed in cover it cannot be targeted.",
        "Accelerate": "A nearby deathmark or immortal gets +1 APL next activation.",
        "Reanimate": "Try to bring back an operative from a nearby reanimation marker.",
        "Apprentek Assistance": "Copies the cryptek's unique actions, one use per turning point.",
        "Deathmarked": "Its targets get marked; friendly shots at marked enemies benefit.",
        "Multi-Dimensional Vision": "Until its next activation its targets cannot be obscured.",
        "Steadfast": "Counts as APL 3 for marker control.",
    },
}

# Selection rules from the composition, in our own encoding (see the team format).
SELECTIONS: dict[str, tuple[Selection, tuple[str, ...]]] = {
    "kasrkin": (
        Selection(
            size=(10, 10),
            leader="Kasrkin Sergeant",
            limits=(
                ("Kasrkin Combat Medic", 1),
                ("Kasrkin Demo Trooper", 1),
                # each gunner option is its own line of the list: once each
                ("Kasrkin Gunner [Flamer; Gun Butt]", 1),
                ("Kasrkin Gunner [Grenade Launcher; Gun Butt]", 1),
                ("Kasrkin Gunner [Hot-Shot Volley Gun; Gun Butt]", 1),
                ("Kasrkin Gunner [Meltagun; Gun Butt]", 1),
                ("Kasrkin Gunner [Plasma Gun; Gun Butt]", 1),
                ("Kasrkin Recon-Trooper", 1),
                ("Kasrkin Sharpshooter", 1),
                ("Kasrkin Vox-Trooper", 1),
            ),
            # Gunners (any option) and the Sharpshooter: at most four of them together.
            combined_limits=((("Kasrkin Gunner", "Kasrkin Sharpshooter"), 4),),
        ),
        (
            "Kasrkin Sergeant [Plasma Pistol; Chainsword]",
            "Kasrkin Combat Medic",
            "Kasrkin Demo Trooper",
            "Kasrkin Gunner [Plasma Gun; Gun Butt]",
            "Kasrkin Gunner [Meltagun; Gun Butt]",
            "Kasrkin Gunner [Hot-Shot Volley Gun; Gun Butt]",
            "Kasrkin Recon-Trooper",
            "Kasrkin Sharpshooter",
            "Kasrkin Vox-Trooper",
            "Kasrkin Trooper",
        ),
    ),
    "angels_of_death": (
        Selection(
            size=(6, 6),
            limits=(
                ("Space Marine Captain", 1),
                ("Assault Intercessor Sergeant", 1),
                ("Intercessor Sergeant", 1),
                ("Eliminator Sniper", 1),
                ("Assault Intercessor Grenadier", 1),
                ("Heavy Intercessor Gunner", 1),
                ("Intercessor Gunner", 1),
            ),
            leader=("Space Marine Captain", "Assault Intercessor Sergeant", "Intercessor Sergeant"),
        ),
        (
            "Intercessor Sergeant [Auto Bolt Rifle + Power Weapon]",
            "Intercessor Gunner [Auto Bolt Rifle; Auxiliary Grenade Launcher; Fists]",
            "Intercessor Warrior [Bolt Rifle; Fists]",
            "Intercessor Warrior [Stalker Bolt Rifle; Fists]",
            "Assault Intercessor Grenadier",
            "Assault Intercessor Warrior",
        ),
    ),
    "legionaries": (
        Selection(
            size=(6, 6),
            limits=(
                ("Legionary Aspiring Champion", 1),
                ("Legionary Chosen", 1),
                ("Legionary Anointed", 1),
                ("Legionary Balefire Acolyte", 1),
                ("Legionary Butcher", 1),
                ("Legionary Gunner", 1),
                ("Legionary Heavy Gunner", 1),
                ("Legionary Icon Bearer", 1),
                ("Legionary Shrivetalon", 1),
            ),
            leader=("Legionary Aspiring Champion", "Legionary Chosen"),
        ),
        (
            "Legionary Aspiring Champion [Plasma Pistol + Power Fist]",
            "Legionary Gunner [Bolt Pistol; Plasma Gun; Fists]",
            "Legionary Heavy Gunner [Bolt Pistol; Heavy Bolter; Fists]",
            "Legionary Icon Bearer [Bolt Pistol; Chainsword]",
            "Legionary Butcher",
            "Legionary Warrior [Boltgun; Fists]",
        ),
    ),
    "pathfinders": (
        Selection(
            size=(11, 12),
            leader="Shas'Ui Pathfinder",
            limits=(
                ("Assault Grenadier Pathfinder", 1),
                ("Blooded Pathfinder", 1),
                ("Comms Specialist Pathfinder", 1),
                ("Drone Controller Pathfinder", 1),
                ("Marksman Pathfinder", 1),
                ("Medical Technician Pathfinder", 1),
                ("Transpectral Interference Pathfinder", 1),
                ("Weapons Expert Pathfinder", 2),
                ("MB3 Recon Drone", 1),
                ("MV1 Gun Drone", 1),
                ("MV4 Shield Drone", 1),
                ("MV7 Marker Drone", 1),
                ("MV31 Pulse Accelerator Drone", 1),
                ("MV33 Grav-Inhibitor Drone", 1),
            ),
        ),
        (
            "Shas'Ui Pathfinder",
            "Assault Grenadier Pathfinder",
            "Blooded Pathfinder",
            "Comms Specialist Pathfinder",
            "Drone Controller Pathfinder",
            "Marksman Pathfinder",
            "Medical Technician Pathfinder",
            "Shas'La Pathfinder",
            "Shas'La Pathfinder",
            "Shas'La Pathfinder",
            "Weapons Expert Pathfinder [Ion Rifle; Gun Butt]",
            "Weapons Expert Pathfinder [Rail Rifle; Gun Butt]",
        ),
    ),
    "kommandos": (
        Selection(
            size=(10, 11),
            leader="Kommando Boss Nob",
            limits=(
                ("Kommando Bomb Squig", 1),
                ("Kommando Breacha Boy", 1),
                ("Kommando Burna Boy", 1),
                ("Kommando Comms Boy", 1),
                ("Kommando Dakka Boy", 1),
                ("Kommando Grot", 1),
                ("Kommando Rokkit Boy", 1),
                ("Kommando Slasha Boy", 1),
                ("Kommando Snipa Boy", 1),
            ),
        ),
        (
            "Kommando Boss Nob [Slugga; Power Klaw]",
            "Kommando Boy",
            "Kommando Boy",
            "Kommando Breacha Boy",
            "Kommando Burna Boy",
            "Kommando Comms Boy",
            "Kommando Dakka Boy",
            "Kommando Rokkit Boy",
            "Kommando Slasha Boy",
            "Kommando Snipa Boy",
        ),
    ),
    "hierotek_circle": (
        Selection(
            size=(8, 8),
            limits=(
                ("Chronomancer", 1),
                ("Psychomancer", 1),
                ("Technomancer", 1),
                ("Plasmacyte Accelerator", 1),
                ("Plasmacyte Reanimator", 1),
                ("Apprentek", 1),
                ("Immortal Despotek", 1),
            ),
            leader=("Chronomancer", "Psychomancer", "Technomancer"),
            keyword_limits=(("CRYPTEK", 1),),
        ),
        (
            "Technomancer",
            "Plasmacyte Accelerator",
            "Plasmacyte Reanimator",
            "Apprentek",
            "Immortal Despotek [Gauss Blaster; Bayonet]",
            "Deathmark",
            "Deathmark",
            "Immortal Guardian [Tesla Carbine; Bayonet]",
        ),
    ),
}

# Wargear options from the composition, as weapon names on each datacard. Per type, a list of
# slots, each a (slot name, options) pair, each option the tuple of weapons it gives. "One of
# the following options" is one slot of whole sets; "one option from each of the following"
# is one slot per line. An option is named by its weapons joined by "; " (datacard order).
# Types that carry every weapon on their card have no entry.
_GUN = ("Gun Butt",)
LOADOUTS: dict[str, dict[str, list[tuple[str, list[tuple[str, ...]]]]]] = {
    "kasrkin": {
        "Kasrkin Sergeant": [
            (
                "wargear",
                [
                    ("Bolt Pistol", "Power Weapon"),
                    ("Hot-Shot Lasgun", "Gun Butt"),
                    ("Hot-Shot Laspistol", "Power Weapon"),
                    ("Plasma Pistol", "Chainsword"),
                ],
            )
        ],
        "Kasrkin Gunner": [
            (
                "wargear",
                [
                    (gun, *_GUN)
                    for gun in (
                        "Flamer",
                        "Grenade Launcher",
                        "Hot-Shot Volley Gun",
                        "Meltagun",
                        "Plasma Gun",
                    )
                ],
            )
        ],
    },
    "angels_of_death": {
        # two lines, or the plasma pistol and chainsword set instead: every legal
        # combination is one whole set of a single slot
        "Assault Intercessor Sergeant": [
            (
                "wargear",
                [
                    (ranged, melee)
                    for ranged in ("Hand Flamer", "Heavy Bolt Pistol")
                    for melee in ("Chainsword", "Power Fist", "Power Weapon", "Thunder Hammer")
                ]
                + [("Plasma Pistol", "Chainsword")],
            )
        ],
        "Intercessor Sergeant": [
            ("ranged", [("Auto Bolt Rifle",), ("Bolt Rifle",), ("Stalker Bolt Rifle",)]),
            (
                "melee",
                [
                    ("Chainsword",),
                    ("Fists",),
                    ("Power Fist",),
                    ("Power Weapon",),
                    ("Thunder Hammer",),
                ],
            ),
        ],
        # the auxiliary grenade launcher comes with every option
        "Intercessor Gunner": [
            (
                "wargear",
                [
                    ("Auto Bolt Rifle", "Auxiliary Grenade Launcher", "Fists"),
                    ("Auxiliary Grenade Launcher", "Bolt Rifle", "Fists"),
                    ("Auxiliary Grenade Launcher", "Stalker Bolt Rifle", "Fists"),
                ],
            )
        ],
        "Intercessor Warrior": [
            (
                "wargear",
                [
                    ("Auto Bolt Rifle", "Fists"),
                    ("Bolt Rifle", "Fists"),
                    ("Stalker Bolt Rifle", "Fists"),
                ],
            )
        ],
    },
    "legionaries": {
        "Legionary Aspiring Champion": [
            ("ranged", [("Plasma Pistol",), ("Tainted Bolt Pistol",)]),
            (
                "melee",
                [("Power Fist",), ("Power Maul",), ("Power Weapon",), ("Tainted Chainsword",)],
            ),
        ],
        "Legionary Chosen": [
            (
                "wargear",
                [("Plasma Pistol", "Daemon Blade"), ("Tainted Bolt Pistol", "Daemon Blade")],
            )
        ],
        "Legionary Icon Bearer": [
            ("wargear", [("Boltgun", "Fists"), ("Bolt Pistol", "Chainsword")]),
        ],
        "Legionary Warrior": [
            ("wargear", [("Boltgun", "Fists"), ("Bolt Pistol", "Chainsword")]),
        ],
        "Legionary Gunner": [
            (
                "wargear",
                [("Bolt Pistol", gun, "Fists") for gun in ("Flamer", "Meltagun", "Plasma Gun")],
            )
        ],
        "Legionary Heavy Gunner": [
            (
                "wargear",
                [
                    ("Bolt Pistol", gun, "Fists")
                    for gun in ("Heavy Bolter", "Missile Launcher", "Reaper Chaincannon")
                ],
            )
        ],
    },
    "pathfinders": {
        "Weapons Expert Pathfinder": [
            ("wargear", [("Ion Rifle", *_GUN), ("Rail Rifle", *_GUN)]),
        ],
    },
    "kommandos": {
        "Kommando Boss Nob": [
            ("wargear", [("Slugga", "Big Choppa"), ("Slugga", "Power Klaw")]),
        ],
    },
    "hierotek_circle": {
        "Chronomancer": [("wargear", [("Aeonstave",), ("Entropic Lance",)])],
        "Immortal Despotek": [
            ("wargear", [("Gauss Blaster", "Bayonet"), ("Tesla Carbine", "Bayonet")]),
        ],
        "Immortal Guardian": [
            ("wargear", [("Gauss Blaster", "Bayonet"), ("Tesla Carbine", "Bayonet")]),
        ],
    },
}


def _loadouts(team_id: str, op: Operative) -> tuple[LoadoutSlot, ...]:
    """The wargear option slots of ``op`` (from :data:`LOADOUTS`); each weapon must be on
    its datacard."""
    card = {w.name for w in op.weapons}
    slots = []
    for slot_name, options in LOADOUTS[team_id].get(op.name, []):
        for weapons in options:
            missing = [w for w in weapons if w not in card]
            if missing:
                raise SystemExit(f"{team_id}: {op.name!r}: no weapon {missing} on the datacard")
        slots.append(
            LoadoutSlot(tuple(LoadoutOption("; ".join(ws), tuple(ws)) for ws in options), slot_name)
        )
    return tuple(slots)


NAMES = {"angels_of_death": "Angels of Death"}
BSDATA_CHECKED = {"kasrkin", "kommandos", "legionaries"}


def _summarise(team_id: str, ability: Ability) -> Ability:
    summary = SUMMARIES[team_id].get(ability.name)
    if summary is None:
        raise SystemExit(f"{team_id}: no summary for {ability.name!r}")
    return attrs.evolve(ability, summary=summary)


def finish(team: Team) -> Team:
    """The imported ``team`` with summaries, selection, default roster and provenance."""
    tid = team.id
    text = SUMMARIES[tid]

    def need(name: str) -> str:
        if name not in text:
            raise SystemExit(f"{tid}: no summary for {name!r}")
        return text[name]

    operatives = tuple(
        attrs.evolve(
            op,
            abilities=tuple(_summarise(tid, a) for a in op.abilities),
            actions=tuple(_summarise(tid, a) for a in op.actions),
            loadouts=_loadouts(tid, op),
        )
        for op in team.operatives
    )
    unknown = sorted(set(LOADOUTS[tid]) - {op.name for op in team.operatives})
    if unknown:
        raise SystemExit(f"{tid}: loadouts for unknown operative types {unknown}")
    selection, roster = SELECTIONS[tid]
    checked = ["killteamjson fe6d04b7"]
    if tid in BSDATA_CHECKED:
        checked.append("bsdata bee230c4")
    return attrs.evolve(
        team,
        name=NAMES.get(tid, team.name),
        operatives=operatives,
        abilities=tuple(_summarise(tid, a) for a in team.abilities),
        ploys=tuple(attrs.evolve(p, summary=need(p.name)) for p in team.ploys),
        equipment=tuple(attrs.evolve(e, summary=need(e.name)) for e in team.equipment),
        selection=selection,
        default_roster=roster,
        provenance=Provenance(
            source="built-in",
            dataslate=team.provenance.dataslate,
            checked_against=tuple(checked),
        ),
    )


def main(argv: list[str]) -> int:
    """Import every team from ``argv[0]`` and write the finished team files to ``teams/``."""
    if len(argv) != 1:
        print(__doc__)
        return 2
    result = import_killteamjson(argv[0])
    for team in result.teams:
        done = finish(team)
        problems = done.default().validate()
        if problems:
            raise SystemExit(f"{team.id}: default roster illegal: {problems}")
        print(save_team(done, ROOT / "teams" / f"{done.id}.json"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
