; Included by electron-builder's NSIS installer (nsis.include in electron-builder.yml).
; Puts resources\bin, which holds pinbridge-cli.cmd (the `pinbridge` command on Windows), on the
; user's PATH at install, and takes it off at uninstall. Per user (HKCU), like the install itself.
; Windows reads PATH when a program starts: a console opened after the install sees it.

!include "LogicLib.nsh"
!include "WinMessages.nsh"

!define PINBRIDGE_CLI_DIR "$INSTDIR\resources\bin"

; The installer's own code may hold values in $R0-$R8: they are kept around ours.
!macro PINBRIDGE_SAVE
  Push $R0
  Push $R1
  Push $R2
  Push $R3
  Push $R4
  Push $R5
  Push $R6
  Push $R7
  Push $R8
!macroend
!macro PINBRIDGE_RESTORE
  Pop $R8
  Pop $R7
  Pop $R6
  Pop $R5
  Pop $R4
  Pop $R3
  Pop $R2
  Pop $R1
  Pop $R0
!macroend

; $R0: the user's PATH, $R1: the folder. Leaves $R2 = 1 when the folder is one of PATH's entries.
!macro PINBRIDGE_PATH_HAS
  StrCpy $R2 0
  StrCpy $R3 ";$R0;"
  StrCpy $R4 ";$R1;"
  StrLen $R5 $R4
  StrCpy $R6 0
  ${Do}
    StrCpy $R7 $R3 $R5 $R6
    ${If} $R7 == ""
      ${Break}
    ${EndIf}
    ${If} $R7 == $R4
      StrCpy $R2 1
      ${Break}
    ${EndIf}
    IntOp $R6 $R6 + 1
  ${Loop}
!macroend

!macro customInstall
  !insertmacro PINBRIDGE_SAVE
  ReadRegStr $R0 HKCU "Environment" "Path"
  StrCpy $R1 "${PINBRIDGE_CLI_DIR}"
  !insertmacro PINBRIDGE_PATH_HAS
  ${If} $R2 == 0
    ${If} $R0 == ""
      WriteRegExpandStr HKCU "Environment" "Path" "$R1"
    ${Else}
      WriteRegExpandStr HKCU "Environment" "Path" "$R0;$R1"
    ${EndIf}
    SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=500
  ${EndIf}
  !insertmacro PINBRIDGE_RESTORE
!macroend

!macro customUnInstall
  !insertmacro PINBRIDGE_SAVE
  ReadRegStr $R0 HKCU "Environment" "Path"
  StrCpy $R1 "${PINBRIDGE_CLI_DIR}"
  ; Rebuilds PATH entry by entry without the folder ($R8: what is kept, $R3: what is left to read).
  StrCpy $R8 ""
  StrCpy $R3 "$R0;"
  ${Do}
    ${If} $R3 == ""
      ${Break}
    ${EndIf}
    ; $R6: the length of the next entry, up to its ';'.
    StrCpy $R6 0
    ${Do}
      StrCpy $R7 $R3 1 $R6
      ${If} $R7 == ";"
      ${OrIf} $R7 == ""
        ${Break}
      ${EndIf}
      IntOp $R6 $R6 + 1
    ${Loop}
    StrCpy $R4 $R3 $R6
    IntOp $R6 $R6 + 1
    StrCpy $R3 $R3 "" $R6
    ${If} $R4 != ""
    ${AndIf} $R4 != $R1
      ${If} $R8 == ""
        StrCpy $R8 $R4
      ${Else}
        StrCpy $R8 "$R8;$R4"
      ${EndIf}
    ${EndIf}
  ${Loop}
  ${If} $R8 != $R0
    WriteRegExpandStr HKCU "Environment" "Path" "$R8"
    SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=500
  ${EndIf}
  !insertmacro PINBRIDGE_RESTORE
!macroend
