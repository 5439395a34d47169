import { Button, Intent } from '@blueprintjs/core';
import { validateProfilePicture } from '@kosh/domain';
import { useRef } from 'react';
import { isApiError } from '../api/apiError';
import { Avatar } from '../app/layout/Avatar';
import { useDeleteProfilePictureMutation, useUploadProfilePictureMutation } from '../auth/authApi';
import type { User } from '../auth/user';
import { toast } from '../toaster';

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** The avatar with a camera button; checks type and size before anything is sent. */
export function ProfilePicture({ user }: { user: User }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [upload, { isLoading: uploading }] = useUploadProfilePictureMutation();
  const [remove, { isLoading: removing }] = useDeleteProfilePictureMutation();

  const onFileChosen = async (file: File | undefined) => {
    if (fileInput.current) fileInput.current.value = '';
    if (!file) return;
    const problem = validateProfilePicture({ mimeType: file.type, size: file.size })[0];
    if (problem) {
      toast.error(problem.message);
      return;
    }
    try {
      await upload({ profilePicture: await readAsDataUrl(file) }).unwrap();
      toast.success('Profile picture updated successfully');
      // Spec section 2: the page reloads after a successful upload.
      window.location.reload();
    } catch (error) {
      // The API layer shows a failed call; anything else (an unreadable file) is shown here.
      if (!isApiError(error)) toast.error('Failed to upload profile picture');
    }
  };

  const removePicture = async () => {
    try {
      await remove().unwrap();
      toast.success('Profile picture removed');
    } catch {
      // The API layer has already shown the failure.
    }
  };

  return (
    <div className="kosh-profile-picture">
      <Avatar user={user} size={96} />
      <Button
        className="kosh-camera-button"
        icon="camera"
        intent={Intent.PRIMARY}
        aria-label="Change profile picture"
        loading={uploading}
        onClick={() => fileInput.current?.click()}
      />
      <input
        ref={fileInput}
        type="file"
        accept="image/*"
        hidden
        aria-label="Profile picture file"
        onChange={(event) => onFileChosen(event.currentTarget.files?.[0])}
      />
      {user.profilePicture ? (
        <Button
          variant="minimal"
          size="small"
          loading={removing}
          onClick={removePicture}
          text="Remove picture"
        />
      ) : null}
    </div>
  );
}
