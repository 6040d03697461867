"""Stand-ins for your own data: two CSV files with a header, seeded.

* ``my_data.csv``: a classification set, a ``label`` column (300 samples, 20 features of which
  5 informative);
* ``my_prices.csv``: a regression set, a ``price`` column (200 samples, 15 features of which 5
  informative, Gaussian noise).
"""

import pandas as pd
from sklearn.datasets import make_classification, make_regression

X, y = make_classification(
    n_samples=300, n_features=20, n_informative=5, n_redundant=2, random_state=0
)
frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])]).assign(label=y)
frame.to_csv("my_data.csv", index=False, float_format="%.10g")

X, y = make_regression(n_samples=200, n_features=15, n_informative=5, noise=10.0, random_state=0)
frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])]).assign(price=y)
frame.to_csv("my_prices.csv", index=False, float_format="%.10g")
