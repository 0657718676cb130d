;; extern-lsp with eglot (built into Emacs 29+; on Emacs 28 install the eglot package).
;; Eglot runs one server per buffer: this makes extern-lsp the server for
;; C/C++ buffers (and .cce and .asc files); keep clangd for other projects with a
;; directory-local `eglot-server-programs' if you need both.
(add-to-list 'auto-mode-alist '("\\.\\(cce\\|asc\\)\\'" . c++-mode))
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '((c++-mode c-mode c++-ts-mode c-ts-mode) . ("extern-lsp"))))
;; The server indexes the project root to link kernels to their Python stubs.
;; Outside a VC checkout project.el would pick the file's own directory; use
;; the nearest pyproject.toml / extern-lsp.toml instead (VC roots still win).
(defun extern-lsp-project-root (dir)
  (let ((root (locate-dominating-file
               dir (lambda (d) (or (file-exists-p (expand-file-name "pyproject.toml" d))
                                   (file-exists-p (expand-file-name "extern-lsp.toml" d)))))))
    (and root (cons 'transient root))))
(add-hook 'project-find-functions #'extern-lsp-project-root 90)
;; Rule settings, sent as the "externLsp" section of workspace/configuration
;; (can also go in .dir-locals.el):
(setq-default eglot-workspace-configuration
              '(:externLsp (:ignore [] :severity (:EXT001 "warning") :checkPython t)))
(add-hook 'c++-mode-hook #'eglot-ensure)
(add-hook 'c-mode-hook #'eglot-ensure)
