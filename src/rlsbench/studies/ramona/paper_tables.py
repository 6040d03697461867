"""Numbers published by Ramona et al. (2012), printed beside ours (never used to compute).

Transcribed from the paper's Tables II, IV, VI, VIII and IX (error rates and accuracies in %,
"mean ± std" as (mean, std); CPU times normalised to the fastest cell of each table).
"""

from __future__ import annotations

#: Table II: mean error (%) over 30 iterations on 10-class USPS, Gaussian RBF kernel.
TABLE2 = {
    200: {
        "fisher": (6.7, 1.0),
        "fspp": (6.6, 0.8),
        "arom": (6.2, 0.8),
        "sas": (6.9, 1.0),
        "scss": (6.6, 1.0),
    },
    150: {
        "fisher": (6.4, 1.0),
        "fspp": (6.9, 0.7),
        "arom": (6.0, 0.8),
        "sas": (6.6, 1.1),
        "scss": (6.7, 1.0),
    },
    100: {
        "fisher": (6.3, 1.0),
        "fspp": (7.1, 0.7),
        "arom": (5.8, 0.8),
        "sas": (6.2, 1.0),
        "scss": (6.6, 1.0),
    },
    50: {
        "fisher": (6.7, 1.0),
        "fspp": (8.0, 0.7),
        "arom": (5.6, 0.8),
        "sas": (6.2, 1.0),
        "scss": (6.5, 1.1),
    },
    30: {
        "fisher": (7.5, 1.2),
        "fspp": (9.1, 0.9),
        "arom": (5.5, 0.8),
        "sas": (6.5, 1.0),
        "scss": (6.9, 1.0),
    },
    10: {
        "fisher": (10.1, 1.6),
        "fspp": (12.4, 1.3),
        "arom": (6.3, 0.7),
        "sas": (8.3, 1.3),
        "scss": (8.9, 1.3),
    },
    5: {
        "fisher": (12.2, 1.5),
        "fspp": (13.8, 1.1),
        "arom": (8.5, 0.7),
        "sas": (10.6, 1.4),
        "scss": (10.8, 1.4),
    },
}

#: Table V: error (%) on the binarised USPS (digits 0-4 against 5-9), Wang's protocol [8]:
#: features selected on 7 samples per class, SVM trained on 1000, 7 iterations on the 2007
#: test samples. "r2w2_wang" and "kcs_wang" are Wang's own results, quoted by the paper.
TABLE5 = {
    50: {"r2w2_wang": 10.0, "kcs_wang": 11.5, "sas": (10.0, 2.5), "scss": (14.7, 4.0),
         "kfds": (12.7, 3.5)},
    40: {"r2w2_wang": 10.0, "kcs_wang": 12.5, "sas": (11.4, 2.2), "scss": (16.3, 3.9),
         "kfds": (13.3, 3.3)},
    20: {"r2w2_wang": 15.5, "kcs_wang": 17.0, "sas": (14.3, 1.1), "scss": (21.4, 4.7),
         "kfds": (17.0, 2.9)},
    10: {"r2w2_wang": 25.0, "kcs_wang": 23.0, "sas": (20.7, 2.5), "scss": (24.4, 4.1),
         "kfds": (24.5, 2.1)},
    5: {"r2w2_wang": 34.0, "kcs_wang": 31.5, "sas": (26.6, 2.9), "scss": (27.5, 3.3),
        "kfds": (29.5, 2.8)},
    3: {"r2w2_wang": 39.5, "kcs_wang": 36.5, "sas": (30.4, 2.4), "scss": (29.0, 2.6),
        "kfds": (33.3, 3.6)},
    1: {"r2w2_wang": 41.0, "kcs_wang": 41.5, "sas": (37.6, 4.8), "scss": (36.9, 5.1),
        "kfds": (40.2, 3.4)},
}  # fmt: skip

#: Table IV: error (%) at Neumann et al.'s feature counts ("dim", averages, hence fractional).
#: Keys (kernel, paper dataset name); "neumann" = Neumann et al.'s own result.
TABLE4 = {
    ("linear", "liver"): {
        "dim": 6.0,
        "neumann": (35.1, 1.0),
        "sas": (34.0, 2.0),
        "scss": (34.0, 2.0),
        "kfds": (34.0, 2.0),
    },
    ("linear", "cleveland"): {
        "dim": 9.9,
        "neumann": (16.5, 0.5),
        "sas": (17.2, 2.4),
        "scss": (17.1, 2.5),
        "kfds": (24.1, 2.9),
    },
    ("linear", "ionosphere"): {
        "dim": 25,
        "neumann": (13.4, 0.3),
        "sas": (12.9, 2.4),
        "scss": (13.4, 2.6),
        "kfds": (12.2, 2.3),
    },
    ("linear", "pima"): {
        "dim": 6.6,
        "neumann": (25.1, 0.2),
        "sas": (24.2, 2.0),
        "scss": (24.2, 1.9),
        "kfds": (24.4, 1.8),
    },
    ("linear", "bcw"): {
        "dim": 8.7,
        "neumann": (3.2, 0.0),
        "sas": (3.5, 0.9),
        "scss": (3.5, 0.9),
        "kfds": (3.5, 0.9),
    },
    ("linear", "sonar"): {
        "dim": 50,
        "neumann": (22.6, 0.1),
        "sas": (23.3, 1.8),
        "scss": (23.1, 1.6),
        "kfds": (21.9, 1.9),
    },
    ("linear", "musk"): {
        "dim": 125,
        "neumann": (18.3, 0.3),
        "sas": (20.7, 2.5),
        "scss": (20.0, 2.4),
        "kfds": (21.4, 2.6),
    },
    ("rbf", "liver"): {
        "dim": 2.5,
        "neumann": (35.4, 1.5),
        "sas": (36.2, 1.0),
        "scss": (34.9, 2.6),
        "kfds": (40.4, 2.3),
    },
    ("rbf", "cleveland"): {
        "dim": 3.2,
        "neumann": (23.6, 0.3),
        "sas": (22.1, 3.0),
        "scss": (23.0, 2.8),
        "kfds": (27.8, 3.1),
    },
    ("rbf", "ionosphere"): {
        "dim": 6.6,
        "neumann": (7.7, 0.3),
        "sas": (7.0, 2.2),
        "scss": (7.0, 2.4),
        "kfds": (8.0, 2.8),
    },
    ("rbf", "pima"): {
        "dim": 1.4,
        "neumann": (27.0, 0.2),
        "sas": (27.0, 2.6),
        "scss": (26.1, 1.2),
        "kfds": (32.7, 3.2),
    },
    ("rbf", "bcw"): {
        "dim": 2.8,
        "neumann": (4.2, 0.0),
        "sas": (4.5, 1.1),
        "scss": (4.3, 1.0),
        "kfds": (6.1, 1.3),
    },
    ("rbf", "sonar"): {
        "dim": 9.6,
        "neumann": (27.4, 0.6),
        "sas": (24.9, 3.1),
        "scss": (22.2, 3.3),
        "kfds": (31.6, 2.9),
    },
    ("rbf", "musk"): {
        "dim": 41,
        "neumann": (15.5, 0.2),
        "sas": (13.8, 3.0),
        "scss": (14.4, 3.3),
        "kfds": (15.9, 2.7),
    },
}

#: Table VI: accuracy (%) with 70 % / 30 % splits, Gaussian RBF kernel; keys (dataset, S).
TABLE6 = {
    ("ionosphere", 5): {
        "bahsic": (87.1, 3.1),
        "gmkl": (90.9, 1.9),
        "sas": (92.0, 2.3),
        "scss": (91.1, 2.8),
        "kfds": (88.7, 3.1),
    },
    ("ionosphere", 10): {
        "bahsic": (90.2, 3.5),
        "gmkl": (93.7, 2.1),
        "sas": (93.6, 2.1),
        "scss": (93.2, 2.1),
        "kfds": (93.1, 2.8),
    },
    ("ionosphere", 15): {
        "bahsic": (92.6, 2.0),
        "gmkl": (94.1, 2.1),
        "sas": (94.6, 2.0),
        "scss": (94.5, 2.0),
        "kfds": (93.6, 2.2),
    },
    ("parkinsons", 3): {
        "bahsic": (85.2, 3.8),
        "gmkl": (86.3, 4.1),
        "sas": (88.6, 4.1),
        "scss": (84.9, 3.8),
        "kfds": (85.1, 7.7),
    },
    ("parkinsons", 7): {
        "bahsic": (88.5, 3.6),
        "gmkl": (92.6, 2.9),
        "sas": (88.7, 3.7),
        "scss": (84.2, 4.5),
        "kfds": (85.6, 6.0),
    },
    ("sonar", 5): {
        "bahsic": (61.1, 6.2),
        "gmkl": (74.4, 5.1),
        "sas": (74.1, 4.4),
        "scss": (71.6, 3.8),
        "kfds": (65.3, 7.7),
    },
    ("sonar", 10): {
        "bahsic": (73.1, 5.9),
        "gmkl": (80.2, 4.9),
        "sas": (75.1, 3.1),
        "scss": (77.8, 3.3),
        "kfds": (68.4, 8.9),
    },
    ("sonar", 15): {
        "bahsic": (74.7, 4.5),
        "gmkl": (80.7, 5.5),
        "sas": (77.4, 4.5),
        "scss": (79.5, 3.8),
        "kfds": (73.9, 7.9),
    },
}

#: Table VIII: CPU time over N at D = 30, normalised to the lowest time.
TABLE8 = {
    "N": [5, 10, 20, 50, 200, 500, 1000],
    "arom": [6, 7, 8, 14, 23, 38, 88],
    "r2w2": [14, 17, 20, 32, 292, 2710, 17764],
    "rfe": [65, 55, 63, 68, 127, 353, 1021],
    "sas": [42, 29, 34, 41, 67, 270, 1153],
    "kfds": [2, 1, 1, 2, 3, 23, 169],
}

#: Table IX: CPU time over D at N = 30, normalised to the lowest time.
TABLE9 = {
    "D": [5, 20, 50, 200, 500, 1000, 2000],
    "arom": [78, 83, 88, 105, 133, 153, 210],
    "r2w2": [83, 100, 138, 260, 498, 890, 1748],
    "rfe": [28, 98, 265, 1503, 5715, 19388, 80083],
    "sas": [110, 150, 208, 455, 880, 1600, 3143],
    "kfds": [1, 3, 4, 25, 248, 1801, 14037],
}

#: Table I: training / test sizes of the real-data experiments.
TABLE1_SPLITS = {
    "spambase": (500, 1000),
    "ionosphere": (250, 101),
    "usps": ("10 x 100", 2007),
    "parkinsons": (136, 59),
    "breast-cancer-wisconsin": (340, 343),
    "cleveland": (150, 147),
    "liver-disorders": (240, 105),
    "musk": (300, 176),
    "pima": (500, 268),
    "sonar": (145, 63),
}
