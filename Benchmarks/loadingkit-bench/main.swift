print("loadingkit-bench")
