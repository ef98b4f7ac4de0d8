@echo off
rem The `pinbridge` command on Windows (docs/packaging.md). Pinbridge.exe started with a subcommand
rem runs it as a command and writes to this console; it is a GUI program, so cmd would not wait for
rem it: start /wait does, and keeps its exit code.
start "" /b /wait "%~dp0..\..\Pinbridge.exe" %*
exit /b %ERRORLEVEL%
