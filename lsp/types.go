package lsp

import (
	"encoding/json"

	"go.lsp.dev/protocol"
)

// The incoming messages are decoded into these small structs rather than
// go.lsp.dev/protocol's: those model LSP 3.16 and a shape they do not expect
// (a 3.17 capability, a null where they want an object) would fail a whole
// initialize. Outgoing messages reuse protocol's types where they fit.

type initializeParams struct {
	ProcessID             *int64            `json:"processId"`
	RootURI               string            `json:"rootUri"`
	RootPath              string            `json:"rootPath"`
	WorkspaceFolders      []workspaceFolder `json:"workspaceFolders"`
	InitializationOptions json.RawMessage   `json:"initializationOptions"`
	Capabilities          clientCapsWire    `json:"capabilities"`
	Trace                 string            `json:"trace"`
	ClientInfo            *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"clientInfo"`
}

type workspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// clientCapsWire is the part of ClientCapabilities the server looks at.
type clientCapsWire struct {
	Workspace *struct {
		Configuration         bool `json:"configuration"`
		WorkspaceFolders      bool `json:"workspaceFolders"`
		DidChangeWatchedFiles *struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"didChangeWatchedFiles"`
		Diagnostics *struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"diagnostics"`
		InlayHint *struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"inlayHint"`
		SemanticTokens *struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"semanticTokens"`
		CodeLens *struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"codeLens"`
	} `json:"workspace"`
	TextDocument *struct {
		Diagnostic *struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"diagnostic"`
	} `json:"textDocument"`
	// Experimental.ExternLspStatus: the client shows the
	// externLsp/status notification itself (VS Code's status item, the
	// Neovim plugin), so the server sends no window/showMessage for it.
	Experimental *struct {
		ExternLspStatus bool `json:"externLspStatus"`
	} `json:"experimental"`
	Window *struct {
		WorkDoneProgress bool `json:"workDoneProgress"`
		ShowDocument     *struct {
			Support bool `json:"support"`
		} `json:"showDocument"`
	} `json:"window"`
}

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

type didOpenParams struct {
	TextDocument struct {
		URI        string `json:"uri"`
		LanguageID string `json:"languageId"`
		Version    int32  `json:"version"`
		Text       string `json:"text"`
	} `json:"textDocument"`
}

// contentChange keeps Range a pointer: a change without a range replaces
// the whole document (protocol's struct cannot tell the two apart).
type contentChange struct {
	Range *protocol.Range `json:"range"`
	Text  string          `json:"text"`
}

type didChangeParams struct {
	TextDocument struct {
		URI     string `json:"uri"`
		Version int32  `json:"version"`
	} `json:"textDocument"`
	ContentChanges []contentChange `json:"contentChanges"`
}

type didSaveParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Text         *string                `json:"text"`
}

type didCloseParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type positionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Position     protocol.Position      `json:"position"`
}

type rangeParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range         `json:"range"`
}

type codeActionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range         `json:"range"`
	Context      struct {
		Diagnostics []json.RawMessage `json:"diagnostics"`
		Only        []string          `json:"only"`
	} `json:"context"`
}

type executeCommandParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments"`
}

type cancelParams struct {
	ID json.RawMessage `json:"id"`
}

type setTraceParams struct {
	Value string `json:"value"`
}

type fileEvent struct {
	URI  string `json:"uri"`
	Type int    `json:"type"`
}

type didChangeWatchedFilesParams struct {
	Changes []fileEvent `json:"changes"`
}

type didChangeFoldersParams struct {
	Event struct {
		Added   []workspaceFolder `json:"added"`
		Removed []workspaceFolder `json:"removed"`
	} `json:"event"`
}

type didChangeConfigurationParams struct {
	Settings json.RawMessage `json:"settings"`
}

// LSP 3.17 additions (go.lsp.dev/protocol v0.12.0 predates them).

type documentDiagnosticParams struct {
	TextDocument     textDocumentIdentifier `json:"textDocument"`
	PreviousResultID string                 `json:"previousResultId"`
}

// documentDiagnosticReport is a full or unchanged report.
type documentDiagnosticReport struct {
	Kind     string `json:"kind"` // "full" | "unchanged"
	ResultID string `json:"resultId,omitempty"`
	// Items is set (possibly to an empty list) on full reports only.
	Items any `json:"items,omitempty"`
}

type workspaceDiagnosticParams struct {
	PreviousResultIDs []struct {
		URI   string `json:"uri"`
		Value string `json:"value"`
	} `json:"previousResultIds"`
}

type workspaceDocumentDiagnosticReport struct {
	Kind     string `json:"kind"`
	ResultID string `json:"resultId,omitempty"`
	URI      string `json:"uri"`
	Version  *int32 `json:"version"`
	Items    any    `json:"items,omitempty"`
}

type workspaceDiagnosticReport struct {
	Items []workspaceDocumentDiagnosticReport `json:"items"`
}

// fullItems makes an empty full report marshal its items as [].
func fullItems(ds []protocol.Diagnostic) []protocol.Diagnostic {
	if ds == nil {
		return []protocol.Diagnostic{}
	}
	return ds
}

type inlayHint struct {
	Position     protocol.Position `json:"position"`
	Label        string            `json:"label"`
	Kind         int               `json:"kind,omitempty"` // 1 type, 2 parameter
	Tooltip      *markup           `json:"tooltip,omitempty"`
	PaddingLeft  bool              `json:"paddingLeft,omitempty"`
	PaddingRight bool              `json:"paddingRight,omitempty"`
}

type markup struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// publishParams carries the version as a pointer so version 0 is sent.
type publishParams struct {
	URI         string                `json:"uri"`
	Version     *int32                `json:"version,omitempty"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
}

// abiTableParams / abiTableResult are the custom externLsp/abiTable request
// the editor clients use to show a file's args[] layout.
type abiTableParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type abiTableResult struct {
	Markdown string `json:"markdown"`
}

type logTraceParams struct {
	Message string `json:"message"`
	Verbose string `json:"verbose,omitempty"`
}

type workDoneProgressBegin struct {
	Kind        string `json:"kind"`
	Title       string `json:"title"`
	Cancellable bool   `json:"cancellable"`
	Message     string `json:"message,omitempty"`
	Percentage  *int   `json:"percentage,omitempty"`
}

type workDoneProgressReport struct {
	Kind       string `json:"kind"`
	Message    string `json:"message,omitempty"`
	Percentage *int   `json:"percentage,omitempty"`
}

type workDoneProgressEnd struct {
	Kind    string `json:"kind"`
	Message string `json:"message,omitempty"`
}
