"""Stand-in for your own data: a CSV file with a header and a `label` column
(300 samples, 20 features of which 5 informative; seeded)."""

import pandas as pd
from sklearn.datasets import make_classification

X, y = make_classification(
    n_samples=300, n_features=20, n_informative=5, n_redundant=2, random_state=0
)
frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])]).assign(label=y)
frame.to_csv("my_data.csv", index=False, float_format="%.10g")
