package main

import "github.com/spf13/cobra"

func registerCompletions(root *cobra.Command) {}
