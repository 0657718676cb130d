;;; eglot-e2e.el --- headless Emacs + eglot end-to-end probe  -*- lexical-binding: t -*-
;; usage: E2E_SNIPPET=eglot.el E2E_OUT=out.json emacs --batch -l eglot-e2e.el FILE
;; (run by snippets_test.go with the built extern-lsp first in PATH).
;; Loads the README's snippet as a user would, opens FILE, waits for
;; diagnostics, asks for a hover on args[3] and writes JSON.
(require 'package)
(package-initialize)
(require 'eglot)
(require 'json)
(load (getenv "E2E_SNIPPET") nil t)
(setq eglot-sync-connect t eglot-autoshutdown t)
(let* ((out (getenv "E2E_OUT"))
       (file (car command-line-args-left))
       (result (list (cons 'emacs emacs-version)))
       (buf (find-file-noselect file)))
  (setq command-line-args-left nil)
  (with-current-buffer buf
    (condition-case err
        (progn
          ;; The snippet's eglot-ensure waits for a command loop that batch
          ;; mode never runs; connect the way it would, with the same contact.
          (unless (eglot-current-server) (apply #'eglot (eglot--guess-contact)))
          (push (cons 'connected (and (eglot-current-server) t)) result)
          (push (cons 'server (format "%S" (process-command (jsonrpc--process (eglot-current-server))))) result)
          (flymake-mode 1) (flymake-start)
          (let ((n 0))
            (while (and (null (flymake-diagnostics)) (< n 600))
              (accept-process-output nil 0.025) (flymake-start) (setq n (1+ n))))
          (push (cons 'diagnostics
                      (vconcat (mapcar (lambda (d)
                                         (list (cons 'line (1- (line-number-at-pos (flymake-diagnostic-beg d))))
                                               (cons 'type (symbol-name (flymake-diagnostic-type d)))
                                               (cons 'text (flymake-diagnostic-text d))))
                                       (flymake-diagnostics))))
                result)
          (goto-char (point-min))
          (search-forward "args[3]")
          (backward-char 2)
          (let* ((hover (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover
                                         (eglot--TextDocumentPositionParams)))
                 (contents (and hover (plist-get hover :contents))))
            (push (cons 'hover (cond ((stringp contents) contents)
                                     ((plist-get contents :value))
                                     (t (format "%S" contents))))
                  result)))
      (error (push (cons 'error (error-message-string err)) result)))
    (with-temp-file out (insert (json-encode result)))
    (when (eglot-current-server) (ignore-errors (eglot-shutdown (eglot-current-server))))))
(kill-emacs 0)
