package main

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/smacker/go-tree-sitter"
	_ "github.com/smacker/go-tree-sitter/cpp"
	_ "github.com/smacker/go-tree-sitter/python"
	_ "go.lsp.dev/jsonrpc2"
	_ "go.lsp.dev/protocol"
)

func main() {}
